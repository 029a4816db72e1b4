// A delivery's customer as people name them: their name, else their address, else a placeholder.
import type { TAgentDelivery } from '@titan/contracts';

import { AGENT_STRINGS } from '../strings';

export function customerLabel(customer: TAgentDelivery['customer']): string {
  if (!customer) return AGENT_STRINGS.logs.deletedCustomer;
  return customer.name.trim() || customer.email || customer.phone || `#${customer.id}`;
}
