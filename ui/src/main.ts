import { createApp } from 'vue';
import App from './App.vue';
import { basePathFrom } from './api/base.ts';
import { createApiClient } from './api/client.ts';
import { createTokenStore } from './api/token.ts';
import { createAppRouter } from './router.ts';
import { createSession, SessionKey } from './state/session.ts';
import { applyTheme, readTheme } from './state/theme.ts';
import { TokenKey } from './state/token-key.ts';
import './styles.css';

const storage = (kind: 'local' | 'session'): Storage | null => {
  try { return kind === 'local' ? window.localStorage : window.sessionStorage; } catch { return null; }
};

applyTheme(readTheme(storage('local')), document.documentElement, storage('local'));
const base = basePathFrom(document);
const tokens = createTokenStore(storage('session'));
const api = createApiClient(base, tokens.get);
const session = createSession(api, storage('local'));

createApp(App).provide(SessionKey, session).provide(TokenKey, tokens).use(createAppRouter(base)).mount('#app');
