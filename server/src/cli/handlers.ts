/**
 * Every command's handler, loaded only when that command runs. The definitions in defs/ name their
 * handler (`handler: 'info'`) instead of importing it, so imports run one way: main → this file →
 * commands/ → defs/ (for their option types). A missing or extra entry fails the typecheck.
 */
import type { HandlerId, HandlerModule } from './command.ts';

export const HANDLERS: Record<HandlerId, () => Promise<HandlerModule>> = {
  inventory: () => import('./commands/inventory.ts'),
  assess: () => import('./commands/assess.ts'),
  optane: () => import('./commands/optane.ts'),
  forecast: () => import('./commands/forecast.ts'),
  'plan layouts': () => import('./commands/plan.ts').then((m) => ({ run: m.runLayouts })),
  'plan add-slog': () => import('./commands/plan.ts').then((m) => ({ run: m.runAddSlog })),
  'plan add-special': () => import('./commands/plan.ts').then((m) => ({ run: m.runAddSpecial })),
  sizes: () => import('./commands/sizes.ts'),
  observe: () => import('./commands/observe.ts'),
  bench: () => import('./commands/bench.ts'),
  'bench suite': () => import('./commands/bench-suite.ts'),
  report: () => import('./commands/report.ts'),
  capture: () => import('./commands/capture.ts'),
  parse: () => import('./commands/parse.ts'),
  serve: () => import('./commands/serve.ts'),
  start: () => import('./commands/serve.ts').then((m) => ({ run: m.runStart })),
  info: () => import('./commands/info.ts'),
  'login-link': () => import('./commands/login-link.ts'),
  completion: () => import('./framework/completion.ts').then((m) => ({ run: m.runCompletion })),
  man: () => import('./framework/man.ts').then((m) => ({ run: m.runMan })),
};
