import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Each test starts from an empty document, so toasts and menus of one test never leak into the next.
afterEach(() => cleanup());
