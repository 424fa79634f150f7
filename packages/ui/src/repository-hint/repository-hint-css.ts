/**
 * RepositoryHint's CSS, in a module apart from its code: UI_STYLES gathers every component's CSS, and a
 * page that adopts it must not load the components with it.
 */
export const repositoryHintStyles = `
.mp-repository-hint {
  display: flex; flex-wrap: wrap; align-items: center; gap: 6px; flex-basis: 100%; max-width: 380px;
  margin-top: 8px; font-size: 13px; color: var(--mp-text-secondary); white-space: normal;
}
.mp-repository-hint input {
  flex: 1 1 180px; min-width: 0; padding: 5px 8px; border: 1px solid var(--mp-border);
  border-radius: var(--mp-radius); font: 12px monospace;
}
`;
