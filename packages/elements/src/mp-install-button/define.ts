import { defineElement } from '../shared/define-element';
import { MpInstallButton, INSTALL_BUTTON_TAG } from './mp-install-button';

/** Registers <mp-install-button>; harmless when it is already registered. */
export function defineInstallButton(): void {
  defineElement(INSTALL_BUTTON_TAG, MpInstallButton);
}
