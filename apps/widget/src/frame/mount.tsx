import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Bridge } from './bridge';
import type { TFrameConfig } from './config';
import { App } from './components/app';

export function mount(element: HTMLElement, config: TFrameConfig, bridge: Bridge): void {
  createRoot(element).render(
    <StrictMode>
      <App config={config} bridge={bridge} />
    </StrictMode>,
  );
}
