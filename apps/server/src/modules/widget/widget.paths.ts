// Where the built widget is: apps/widget/dist beside the server package, from src/ or dist/.
import { resolve } from 'node:path';
import { serverRoot } from '../../paths';

export const widgetDistDir = resolve(serverRoot, '../widget/dist');
