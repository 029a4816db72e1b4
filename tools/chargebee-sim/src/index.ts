// A local Chargebee API v2 for Titan's tests, the demo and browser tests: customers, hosted
// pricing page and portal, item prices with quota metadata, entitlements, one-off charges, and
// webhooks with basic auth; a control API drives subscriptions and deliveries.
export {
  DEFAULT_ITEM_PRICES,
  startChargebeeSim,
  type ApiRequest,
  type ChargebeeSim,
  type Delivery,
  type SimEvent,
  type SimItemPrice,
  type SimOptions,
  type SimWebhook,
} from './sim';
