// The simulator's business: a shop's orders and a salon's bookings, fixed so tests can assert them.
export const ORDERS = [
  {
    id: 'A-1001',
    email: 'mal@example.com',
    status: 'shipped',
    items: [{ sku: 'MUG-01', name: 'Stoneware mug', qty: 2 }],
    total: '24.00 EUR',
    delivery_date: '2026-12-02',
  },
  {
    id: 'A-1002',
    email: 'zoe@example.com',
    status: 'processing',
    items: [{ sku: 'TEA-07', name: 'Green tea, 250 g', qty: 1 }],
    total: '9.50 EUR',
    delivery_date: null,
  },
  {
    id: 'A-1003',
    email: 'mal@example.com',
    status: 'delivered',
    items: [{ sku: 'POT-02', name: 'Teapot', qty: 1 }],
    total: '39.00 EUR',
    delivery_date: '2026-11-10',
  },
];

export const BOOKINGS = [
  { id: 'B-201', customer: 'Mal Reynolds', service: 'Haircut', starts_at: '2026-12-01T09:30:00Z' },
  { id: 'B-202', customer: 'Zoe Washburne', service: 'Colour', starts_at: '2026-12-01T11:00:00Z' },
  { id: 'B-203', customer: 'Inara Serra', service: 'Manicure', starts_at: '2026-12-02T15:00:00Z' },
];
