// The knowledge module's face: its routes and jobs, and search for the parts that answer from it
// (the AI responder and copilot).
export { knowledgeRoutes } from './knowledge.routes';
export {
  chunkMarkdown,
  createArticle,
  publishedArticlesByIds,
  retrievalQuery,
  searchArticles,
  searchConfigOf,
} from './knowledge.service';
export { defineKbEmbedQueue, embedPending, requestEmbeddings, searchKnowledge } from './embeddings.service';
export { defineKbImportQueue, runImport as runKbImport } from './imports.service';
export type { KnowledgeDeps } from './knowledge.deps';
