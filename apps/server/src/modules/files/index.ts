// The public face of the files module: what other modules and the app's composition may use.
// Everything else in modules/files/ is private to it (eslint: titan-server/module-faces).

export { fileRoutes } from './files.routes';
export {
  deleteUnsentChatMedia,
  findBusinessFile,
  findFile,
  pruneVisitorUploadDays,
  putFileBytes,
  recordStoredFiles,
  sniffMimeType,
  storeUpload,
  takeVisitorUploadAllowance,
  whatsappMediaFolder,
} from './files.service';
export type { PendingFile } from './files.service';
export { readParts, readUpload, registerMultipart } from './multipart';
