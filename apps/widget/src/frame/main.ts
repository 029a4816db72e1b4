// The frame page's entry: answers the host page at once, then loads the React chat app.
import { connectBridge, standaloneBridge } from './bridge';
import { readFrameConfig } from './config';
import './styles.css';

const embedded = window.parent !== window;
const config = readFrameConfig(new URL(window.location.href), embedded);
const bridge = config?.embedded ? connectBridge(config.hostOrigin) : standaloneBridge();
bridge.post({ type: 'ready' });

const root = document.getElementById('root');
if (root && config) {
  void import('./mount').then(({ mount }) => mount(root, config, bridge));
} else if (root) {
  root.textContent = 'This chat is not available.';
}
