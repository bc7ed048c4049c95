export { MetricsModule } from './metrics.module';
export { onEveryResponse, routeOf, statusClass } from './http-metrics';
