import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';
import { AttemptOutcome, WebhookDeliveries } from '@app/webhooks';

const OUTCOMES = ['delivered', 'gone', 'http_error', 'no_answer'] as const;

/** delivered (2xx), gone (410), http_error (any other status), no_answer (timeout, TLS, connect). */
function outcomeOf({ verdict, statusCode }: AttemptOutcome): (typeof OUTCOMES)[number] {
  if (verdict !== 'retry') return verdict;
  return statusCode === null ? 'no_answer' : 'http_error';
}

/** Webhook tries by outcome, heard from WebhookDeliveries. */
@Injectable()
export class DeliveryMetrics {
  constructor(registry: Registry, deliveries: WebhookDeliveries) {
    const attempts = new Counter({
      name: 'scraper_webhook_attempts_total',
      help: 'Webhook HTTP tries by outcome: delivered, gone (410), http_error, no_answer.',
      labelNames: ['outcome'],
      registers: [registry],
    });
    // Every outcome from zero, so rate() sees the first failure.
    for (const outcome of OUTCOMES) attempts.inc({ outcome }, 0);
    deliveries.onAttempt((attempt) => attempts.inc({ outcome: outcomeOf(attempt) }));
  }
}
