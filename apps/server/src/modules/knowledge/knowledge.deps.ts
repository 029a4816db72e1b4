// What the knowledge module needs from the composition root: the database, storage and jobs for
// imports, the SSRF-safe outbound rules for fetching pages, and the business's model for
// embeddings (hybrid search).
import type { LlmDeps } from '../llm';
import type { KnowledgeImportDeps } from './imports.service';

export type KnowledgeDeps = KnowledgeImportDeps & { llm: LlmDeps };
