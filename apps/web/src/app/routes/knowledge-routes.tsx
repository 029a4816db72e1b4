// The knowledge base: its articles and categories, a new article, one article's editor.
import { type RouteObject } from 'react-router';

import {
  AI_REPORT_PATH,
  KNOWLEDGE_IMPORT_PATH,
  KNOWLEDGE_PATH,
  NEW_KNOWLEDGE_ARTICLE_PATH,
} from '../../config/paths';
import { type TRouteHandle } from '../document-title';
import { PAGE_TITLES as T, SHELL_STRINGS } from '../strings';

export const KNOWLEDGE_ROUTES: RouteObject[] = [
  {
    path: KNOWLEDGE_PATH,
    handle: { title: SHELL_STRINGS.areas.knowledge } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/knowledge/routes/knowledge-route')).KnowledgeRoute,
    }),
  },
  {
    path: NEW_KNOWLEDGE_ARTICLE_PATH,
    handle: { title: T.newArticle } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/knowledge/routes/article-route')).NewArticleRoute,
    }),
  },
  {
    path: KNOWLEDGE_IMPORT_PATH,
    handle: { title: T.importArticles } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/knowledge/routes/import-route')).KnowledgeImportRoute,
    }),
  },
  {
    path: AI_REPORT_PATH,
    handle: { title: T.aiReport } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/knowledge/routes/ai-report-route')).AiReportRoute,
    }),
  },
  {
    path: `${KNOWLEDGE_PATH}/articles/:id`,
    handle: { title: T.article } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/knowledge/routes/article-route')).ArticleRoute,
    }),
  },
];
