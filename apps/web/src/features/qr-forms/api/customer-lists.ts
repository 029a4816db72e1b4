// The business's static lists, for the form's "add people to list" choice:
// GET /api/business/customer-lists/ (segments follow their conditions and take no members).
import { useQuery } from '@tanstack/react-query';
import { ZCustomerList, ZEnvelope, ZPage, type TCustomerList } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

const ZListPage = ZPage(ZCustomerList);

export function useStaticLists() {
  return useQuery({
    queryKey: [BUSINESS_SCOPE, 'customer-lists', 'static-for-qr-form'],
    queryFn: async ({ signal }): Promise<TCustomerList[]> => {
      const { data } = await protectedClient.get('/api/business/customer-lists/', {
        params: { page_size: 100 },
        signal,
      });
      return ZEnvelope(ZListPage)
        .parse(data)
        .result.results.filter((list) => list.kind === 'static');
    },
    meta: { errorShownOnScreen: true },
  });
}
