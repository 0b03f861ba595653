/** The service's platforms, named as in its paths, with the credits one call costs (spec section 8). */
export const PLATFORMS = {
	shortvideo: { displayName: 'Short-Video Platform', creditsPerCall: 1 },
	photosocial: { displayName: 'Photo-and-Video Platform', creditsPerCall: 2 },
} as const;

export type Platform = keyof typeof PLATFORMS;

export function isPlatform(value: unknown): value is Platform {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(PLATFORMS, value);
}

const credits = (n: number) => `${n} credit${n > 1 ? 's' : ''}`;

/** The Platform parameter's options, with each platform's price, for both nodes. */
export const platformOptions = Object.entries(PLATFORMS).map(([value, platform]) => ({
	name: `${platform.displayName} (${credits(platform.creditsPerCall).replace('c', 'C')} per Call)`,
	value,
	description: `Sounds used on the ${platform.displayName.toLowerCase()}; every page costs ${credits(platform.creditsPerCall)}`,
}));

/**
 * Each platform's parameter value and price, as a model filling the tool reads them
 * ("shortvideo 1 credit per call, photosocial 2 credits per call").
 */
export const PLATFORM_PRICES = Object.entries(PLATFORMS)
	.map(([value, platform]) => `${value} ${credits(platform.creditsPerCall)} per call`)
	.join(', ');
