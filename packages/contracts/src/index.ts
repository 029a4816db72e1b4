import './zod-messages';

export * from './constants';
export * from './envelope';
export * from './dates';
export * from './health';
export * from './analytics';
export * from './identity';
export * from './business';
export * from './dev';
export * from './chat-group';
export * from './conversations';
export * from './files';
export * from './realtime';
export * from './chat';
export * from './directory';
export * from './whatsapp';
export * from './event-logs';
export * from './email-sending';
