// One jotai store for the console, so code outside React (the fetch wrapper's 401 handler,
// unhandled rejections) writes the same atoms the components read.
import { createStore } from 'jotai';

export const store = createStore();
