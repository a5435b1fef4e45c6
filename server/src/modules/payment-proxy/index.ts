export { createSimulatorProxy } from './simulator-proxy.js';
