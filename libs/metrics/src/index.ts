export { MetricsModule } from './metrics.module';
export { EVERY_ROUTE, routeOf, statusClass } from './http-metrics.middleware';
