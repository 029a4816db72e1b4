// The public face of the customer-lists module: what other modules and the app's composition may use.
// Everything else in modules/customer-lists/ is private to it (eslint: titan-server/module-faces).

export { customerListRoutes } from './customer-lists.routes';
export {
  addKnownMembers,
  countListCustomers,
  doubleOptInOf,
  listNameOf,
  findLists,
  findListsOfCustomer,
  isStaticList,
  listExists,
  listSelection,
  removeKnownMembers,
  type ListSelection,
  walkListCustomers,
} from './customer-lists.service';
