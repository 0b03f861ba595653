'use strict';

// `bash bench/queue.sh`, as docs/running-at-scale.md gives it, at a tiny size: three workers on
// one 10/s key, three rounds together and two runs alone, every execution answered, the summary
// printed and the stack stopped. Figures at this size mean nothing; that the measurement runs does.
const { runToEnd } = require('../harness/command');
const { deadlineMs } = require('../harness/deadlines');

jest.setTimeout(deadlineMs(480));

test('bash bench/queue.sh measures three workers on one key and stops its stack', async () => {
	const { code, output } = await runToEnd('bash bench/queue.sh --repeat 1 --keywords 10', {
		timeoutS: 420,
	});

	expect(output).toMatch(/rep 1 round 3: 200,200,200 in /);
	expect(output).toMatch(/rep 1 alone 2: 200 in /);
	expect(output).toMatch(/\{"rep":1,"together":\[("[\d.]+ %",?){3}\],"refusedFromRound2":/);
	expect(code).toBe(0);
});
