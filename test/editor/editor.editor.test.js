'use strict';

// The editor check of the stack `npm start` brings up, in one signed-in headless Chromium
// (session.js: one stack, one browser, one sign-in for all of it). Each concern is a module of
// cases/ that registers its tests against the shared session, in this order, each starting from a
// page it opens itself:
//   cases/node.js        the Sound Search node: node panel, icon, parameters, runs (the output
//                        panel's cost notice, creditsCharged in view), the demo
//   cases/examples.js    every examples/*.json run green from the canvas, once; after the trend
//                        examples' runs cases/trends.js's checks: the weekly report's chart in
//                        n8n, the rising alert's CSV of rising sounds (the demo trend history)
// A stack and a browser per concern cost more CPU than every test of them together: the layer
// is CPU-bound on two cores, so this file is its only n8n.

const { useEditorSession } = require('./session');
const { nodeCases } = require('./cases/node');
const { examplesCases } = require('./cases/examples');
const { trendChecks } = require('./cases/trends');

const session = useEditorSession();
nodeCases(session);
examplesCases(session, trendChecks(session));
