import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Bridge } from './bridge';
import type { TFrameConfig } from './config';
import { App } from './components/app';
import { applyDocumentLanguage, loadTranslator, visitorLocale } from './i18n';

/** Renders the chat once the visitor's catalogue is loaded (the page's language, else the browser's). */
export async function mount(element: HTMLElement, config: TFrameConfig, bridge: Bridge): Promise<void> {
  const translator = await loadTranslator(visitorLocale(config.lang));
  applyDocumentLanguage(translator);
  createRoot(element).render(
    <StrictMode>
      <App config={config} bridge={bridge} initialTranslator={translator} />
    </StrictMode>,
  );
}
