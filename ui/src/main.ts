import { createApp } from 'vue';
import App from './App.vue';
import { basePathFrom } from './api/base.ts';
import { createApiClient } from './api/client.ts';
import { cockpitOf, createCockpitFetch } from './api/cockpit.ts';
import { createTokenStore } from './api/token.ts';
import { createAppRouter } from './router.ts';
import { EmbeddedInKey } from './state/embed.ts';
import { createSession, SessionKey } from './state/session.ts';
import { applyTheme, COCKPIT_STYLE_KEY, readTheme, themeFromCockpitStyle } from './state/theme.ts';
import { TokenKey } from './state/token-key.ts';
import './styles.css';

const storage = (kind: 'local' | 'session'): Storage | null => {
  try { return kind === 'local' ? window.localStorage : window.sessionStorage; } catch { return null; }
};

// Inside Cockpit (plugin/cockpit): requests go through Cockpit's bridge, the theme is Cockpit's,
// routes live in the URL's hash (Cockpit shows the page in an iframe under its own path).
const cockpit = cockpitOf(window);
const base = basePathFrom(document);
const tokens = createTokenStore(storage('session'));
const api = cockpit ? createApiClient('/', () => null, createCockpitFetch(cockpit)) : createApiClient(base, tokens.get);
const session = createSession(api, storage('local'));

if (cockpit) {
  const follow = () => applyTheme(themeFromCockpitStyle(storage('local')?.getItem(COCKPIT_STYLE_KEY) ?? null), document.documentElement, null);
  follow();
  window.addEventListener('storage', (e) => { if (e.key === COCKPIT_STYLE_KEY) follow(); });
} else {
  applyTheme(readTheme(storage('local')), document.documentElement, storage('local'));
}

const router = createAppRouter(cockpit ? '/' : base, cockpit ? 'hash' : 'web');
// The router changes the hash with pushState, which fires no hashchange; cockpit.js passes the
// hash to Cockpit's shell on that event, so it is raised here: the shell's address bar then shows
// the view (/zfs-advisor#/optane) and a reload or a shared link opens it.
if (cockpit) router.afterEach(() => { window.dispatchEvent(new HashChangeEvent('hashchange')); });

createApp(App)
  .provide(SessionKey, session)
  .provide(TokenKey, tokens)
  .provide(EmbeddedInKey, cockpit ? 'cockpit' : null)
  .use(router)
  .mount('#app');
