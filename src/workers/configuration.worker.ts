/**
 * The configuration engine in a web worker (the "Test" button of the application creation page): the same
 * validation as the server, off the page's thread and offline. A thin wrapper: all the rules live in src/domain.
 */
import * as Comlink from 'comlink';
import { validateConfiguration } from '../domain/configuration';
import type { ConfigurationWorkerApi } from './configurationWorkerApi';

const handlers: ConfigurationWorkerApi = { validateConfiguration };

Comlink.expose(handlers);
