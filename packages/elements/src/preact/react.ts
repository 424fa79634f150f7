/**
 * `react` in the script-tag builds (rollup.config.mjs aliases it here): what the elements and the `ui`
 * components they render use of React, from Preact itself. They use function components, hooks, context and
 * JSX only, so preact/compat (a React emulation of its own, 1.5 KB gzip) is not needed. A component that
 * needs more of React's API fails the build here ("... is not exported"), rather than at run time.
 */
export { createContext, createElement, Fragment } from 'preact';
export {
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'preact/hooks';
