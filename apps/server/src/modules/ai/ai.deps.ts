// What the AI in the inbox needs: the database, the business's model, the knowledge base's search
// (hybrid where embeddings are set), the inbox (conversations and their messages, as the caller may
// see them), and Titan's public address for the help-centre links it cites.
import type { Db } from '../../db/client';
import type { ExternalToolDeps } from '../outside-tools';
import type { AiWhatsappSender, InboxDeps } from '../conversations';
import type { LlmDeps } from '../llm';

export type AiDeps = {
  db: Db;
  llm: LlmDeps;
  inbox: InboxDeps;
  publicUrl: string;
  /** The gate to the business's MCP servers and plugins (the responder's allowed tools). */
  external?: ExternalToolDeps;
  /** How its messages leave on WhatsApp (the channel's own send); without it, WhatsApp is handed off. */
  whatsapp?: AiWhatsappSender;
  logger: { warn(o: object, m: string): void };
  /** Indexes a business's changed articles for hybrid search (an article drafted from a reply). */
  onArticlesChanged?: (businessId: number) => Promise<void>;
};
