'use strict';

// Preloaded into each n8n process of the stack (NODE_OPTIONS=--require): os.hostname() answers
// QUEUE_HOST_NAME. In a container n8n names a worker `worker-<hostname>`, so workers on one
// machine would all share one id; this gives each its own, as on separate machines, without
// root or user namespaces.
const os = require('node:os');

const name = process.env.QUEUE_HOST_NAME;
if (name) os.hostname = () => name;
