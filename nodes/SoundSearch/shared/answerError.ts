import { NodeApiError } from 'n8n-workflow';

/**
 * The service answered, but not with sounds (success: false, available: false, a body of the
 * wrong shape). Its own class so the paginator passes it through instead of treating it like a
 * failed HTTP call.
 */
export class ServiceAnswerError extends NodeApiError {}
