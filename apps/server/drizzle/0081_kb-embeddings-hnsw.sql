-- Nearest-neighbour search over knowledge-base embeddings without reading them all (issue 33's
-- kb-search bench: an exact scan of 100,000 vectors took most of a hybrid search). The column has
-- no dimension (each embedding model has its own), and an HNSW index needs one: so one partial
-- index per common dimension, on the embedding cast to it, over the rows of that dimension.
-- knowledge.repository.ts searchVectors orders by the same cast expression under the same
-- predicate (VECTOR_INDEX_DIMENSIONS lists these); a model of another dimension is searched
-- exactly, as before. Cosine distance (`<=>`), as the search ranks.
CREATE INDEX IF NOT EXISTS "kb_embeddings_hnsw_256_idx" ON "kb_embeddings"
  USING hnsw (("embedding"::vector(256)) vector_cosine_ops) WHERE vector_dims("embedding") = 256;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "kb_embeddings_hnsw_384_idx" ON "kb_embeddings"
  USING hnsw (("embedding"::vector(384)) vector_cosine_ops) WHERE vector_dims("embedding") = 384;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "kb_embeddings_hnsw_512_idx" ON "kb_embeddings"
  USING hnsw (("embedding"::vector(512)) vector_cosine_ops) WHERE vector_dims("embedding") = 512;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "kb_embeddings_hnsw_768_idx" ON "kb_embeddings"
  USING hnsw (("embedding"::vector(768)) vector_cosine_ops) WHERE vector_dims("embedding") = 768;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "kb_embeddings_hnsw_1024_idx" ON "kb_embeddings"
  USING hnsw (("embedding"::vector(1024)) vector_cosine_ops) WHERE vector_dims("embedding") = 1024;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "kb_embeddings_hnsw_1536_idx" ON "kb_embeddings"
  USING hnsw (("embedding"::vector(1536)) vector_cosine_ops) WHERE vector_dims("embedding") = 1536;
