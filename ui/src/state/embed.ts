import type { InjectionKey } from 'vue';

/** Where the page is embedded: `cockpit` inside Cockpit's iframe (theme and login are Cockpit's), null as the app's own tab. */
export type EmbeddedIn = 'cockpit' | null;
export const EmbeddedInKey: InjectionKey<EmbeddedIn> = Symbol('embedded-in');
