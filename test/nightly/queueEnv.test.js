'use strict';

// `bash scripts/queue-env.sh up [N]` in its smoke form: the reference service, Redis, PostgreSQL,
// an n8n main and one worker with the examples, addresses printed, all torn down by pid.
const { runToEnd } = require('../harness/command');

test('bash scripts/queue-env.sh up 1 brings queue mode up with a worker, then tears it down', async () => {
	const { code, output } = await runToEnd('bash scripts/queue-env.sh up 1 --smoke', {
		timeoutS: 270,
	});

	expect(output).toMatch(/\[queue-env\] n8n main: http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)/);
	expect(output).toMatch(/\[queue-env\] worker-1: pid \d+/);
	expect(output).toMatch(/\[queue-env\] stopped \d+ processes by pid in [\d.]+ s, 0 left/);
	expect(code).toBe(0);
});
