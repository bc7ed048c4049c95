// A process of its own that samples the process trees of the pids given as arguments (see
// process-tree.ts), so that reading /proc for dozens of Chromium processes every 200 ms (PSS walks
// each one's page tables) costs no contender's event loop and not the fixture site's: done in the
// process serving the site, it cost the service 10% of its pages a second (bench:render-profile,
// docs/decisions.md). Started by startSamplingElsewhere: it says 'ready' after its first sample,
// and its parent's 'stop' ends it with the summary.
import { startSampling, summarize } from './process-tree';

const sampling = startSampling(process.argv.slice(2).map(Number));
process.send!('ready');
process.on('message', (message) => {
  if (message !== 'stop') return;
  process.send!(summarize(sampling.stop()), () => process.exit(0));
});
