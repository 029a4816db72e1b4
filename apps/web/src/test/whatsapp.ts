// WhatsApp fixtures shared by the web tests.
import type { TWhatsappTemplate } from '@titan/contracts';

/** An approved template with a text header and two body parameters. */
export const ORDER_UPDATE_TEMPLATE: TWhatsappTemplate = {
  id: 1,
  meta_id: '9001',
  name: 'order_update',
  language: 'en_US',
  status: 'APPROVED',
  category: 'UTILITY',
  parameter_format: 'POSITIONAL',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
    { type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' },
    { type: 'FOOTER', text: 'Acme' },
  ],
  header_format: 'TEXT',
  body_parameters: 2,
  header_parameters: 1,
  body_parameter_names: ['1', '2'],
  header_parameter_names: ['1'],
  button_parameters: [],
  synced_at: '2026-03-01T00:00:00.000Z',
};
