export * from './analytics';
export * from './identity';
export * from './business';
export * from './platform';
export * from './inbox';
export * from './whatsapp';
export * from './sends';
export * from './email';
