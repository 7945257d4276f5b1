/**
 * Routes. Views are lazy chunks (the overview is eager: it is the first page). History mode under
 * the server's base path; the server answers unknown non-API paths with index.html. Inside Cockpit
 * the routes live in the hash (`/zfs-advisor#/optane`): Cockpit serves the page from its own path.
 */
import { createRouter, createWebHashHistory, createWebHistory, type RouteRecordRaw } from 'vue-router';
import OverviewView from './overview/OverviewView.vue';

export const VIEWS = [
  { path: '/', name: 'overview', title: 'Overview' },
  { path: '/recommendations', name: 'recommendations', title: 'Recommendations' },
  { path: '/optane', name: 'optane', title: 'Should I add Optane?' },
  { path: '/benchmarks', name: 'benchmarks', title: 'Benchmarks' },
  { path: '/sizing', name: 'sizing', title: 'Special-vdev sizing' },
  { path: '/planner', name: 'planner', title: 'Planner' },
  { path: '/reports', name: 'reports', title: 'Reports' },
  { path: '/hosts', name: 'hosts', title: 'Hosts' },
] as const;

const routes: RouteRecordRaw[] = [
  { path: '/', name: 'overview', component: OverviewView },
  { path: '/recommendations', name: 'recommendations', component: () => import('./findings/RecommendationsView.vue') },
  { path: '/optane', name: 'optane', component: () => import('./optane/OptaneView.vue') },
  { path: '/benchmarks', name: 'benchmarks', component: () => import('./bench/BenchView.vue') },
  { path: '/sizing', name: 'sizing', component: () => import('./sizing/SizingView.vue') },
  { path: '/planner', name: 'planner', component: () => import('./planner/PlannerView.vue') },
  { path: '/reports', name: 'reports', component: () => import('./reports/ReportsView.vue') },
  { path: '/hosts', name: 'hosts', component: () => import('./hosts/HostsView.vue') },
  { path: '/:rest(.*)*', redirect: '/' },
];

export function createAppRouter(base: string, mode: 'web' | 'hash' = 'web') {
  const router = createRouter({ history: mode === 'hash' ? createWebHashHistory() : createWebHistory(base), routes });
  router.afterEach((to) => {
    const v = VIEWS.find((x) => x.name === to.name);
    document.title = v ? `${v.title} · ZFS Advisor` : 'ZFS Advisor';
  });
  return router;
}
