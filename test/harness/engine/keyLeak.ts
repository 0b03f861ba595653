import { everyRun, type RunTexts } from './engine';

const LOG_METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/**
 * Runs `run` and proves the API key is in none of the texts of its result (items, errors with
 * their description and stack) and in no line n8n or the node logged meanwhile.
 */
export async function withKeyLeakCheck<T>(
	apiKey: string,
	run: () => Promise<T>,
	textsOf: RunTexts<T>,
): Promise<T> {
	const spies = LOG_METHODS.map((method) => jest.spyOn(console, method));
	let result: T;
	try {
		result = await run();
	} finally {
		spies.forEach((spy) => spy.mockRestore());
	}
	const logs = spies.flatMap((spy) => spy.mock.calls.map((args) => args.map(String).join(' ')));
	const places = { ...textsOf(result), 'the logs': logs.join('\n') };
	for (const [place, text] of Object.entries(places)) {
		if (apiKey.length >= 8 && text.includes(apiKey))
			throw new Error(`The API key leaked into ${place}`);
	}
	return result;
}

/** Every engine run of the suite, faults included, is checked for the key from here on. */
export function checkEveryRunForKeyLeaks() {
	everyRun.wrap = withKeyLeakCheck;
}
