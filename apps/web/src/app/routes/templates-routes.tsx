// Templates: WhatsApp and email tabs, the email editor's pages, and the AI template generator.
import { type RouteObject } from 'react-router';

import {
  AI_TEMPLATE_PATH,
  EMAIL_BRAND_PATH,
  EMAIL_TEMPLATES_PATH,
  NEW_EMAIL_TEMPLATE_PATH,
  TEMPLATES_PATH,
} from '../../config/paths';
import { type TRouteHandle } from '../document-title';
import { areaTabs } from './area-tabs';
import { PAGE_TITLES as T, SHELL_STRINGS } from '../strings';

export const TEMPLATES_ROUTES: RouteObject[] = [
  {
    // WhatsApp templates (the index) and email templates (a tab, and the editor's pages).
    path: TEMPLATES_PATH,
    handle: { title: SHELL_STRINGS.areas.templates } satisfies TRouteHandle,
    children: [
      {
        lazy: areaTabs('templates', [
          { channel: 'whatsapp', to: TEMPLATES_PATH },
          { channel: 'email', to: EMAIL_TEMPLATES_PATH },
        ]),
        children: [
          {
            index: true,
            handle: { title: T.whatsappTemplates } satisfies TRouteHandle,
            lazy: async () => ({
              Component: (await import('../../features/whatsapp/routes/whatsapp-templates-route'))
                .WhatsappTemplatesRoute,
            }),
          },
          {
            path: EMAIL_TEMPLATES_PATH,
            handle: { title: T.emailTemplates } satisfies TRouteHandle,
            lazy: async () => ({
              Component: (await import('../../features/email-templates/routes/email-templates-route'))
                .EmailTemplatesRoute,
            }),
          },
        ],
      },
      {
        path: NEW_EMAIL_TEMPLATE_PATH,
        handle: { title: T.newEmailTemplate } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/email-templates/routes/email-template-editor-route'))
            .NewEmailTemplateRoute,
        }),
      },
      {
        path: EMAIL_BRAND_PATH,
        handle: { title: T.emailBrand } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/email-templates/routes/email-brand-route'))
            .EmailBrandRoute,
        }),
      },
      {
        path: `${EMAIL_TEMPLATES_PATH}/:templateId`,
        handle: { title: T.emailTemplate } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/email-templates/routes/email-template-editor-route'))
            .EmailTemplateEditorRoute,
        }),
      },
    ],
  },
  {
    path: AI_TEMPLATE_PATH,
    handle: { title: SHELL_STRINGS.areas.aiTemplate } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/email-templates/routes/ai-template-route')).AiTemplateRoute,
    }),
  },
];
