// The hub server core: define hubs, create them, mount them with the Fastify plugin.
export { type ArgSpec, type ArgsValidator, type FromSchema, type JsonSchema } from './arguments.js';
export {
  type HubCallContext,
  type HubDefinition,
  HubError,
  type HubLogger,
  type HubMethod,
  type HubMethodsOf,
  hubMethods,
  type TransportName,
  type TypedHubMethod,
} from './definition.js';
export { type ClientProxy, createHub, defaultPublicMessage, type EventMap, Hub, type HubOptions } from './hub.js';
export { type Audience, type HubBackplane } from './backplane.js';
export { hubPlugin, type HubPluginOptions } from './plugin.js';
export { defaultLimits, type HubLimits } from './transport.js';
