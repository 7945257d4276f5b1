/// <reference types="vite/client" />
// Lets TypeScript (tsc, which does not read .vue files) type the imports of single-file components.
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}
