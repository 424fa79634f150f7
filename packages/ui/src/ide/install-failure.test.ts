import { installFailureToast } from '@marketplace/core';
import { IDE_BRIDGE_ERROR_KINDS, IdeBridgeError, ideBridgeMessages } from '@marketplace/ide-bridge';
import { describe, expect, it } from 'vitest';
import { describeInstallFailure } from './install-failure';

const IDE = 'IntelliJ IDEA 2025.2';

describe('describeInstallFailure', () => {
  it("keeps the spec's toast and adds the IDE's reason when the IDE answered and refused", () => {
    const spec = installFailureToast(IDE);
    const reasons = [
      new IdeBridgeError(IDE_BRIDGE_ERROR_KINDS.refused, ideBridgeMessages.refused(IDE), { status: 403 }),
      new IdeBridgeError(IDE_BRIDGE_ERROR_KINDS.rateLimited, ideBridgeMessages.rateLimited(IDE), {
        status: 429,
      }),
      new IdeBridgeError(IDE_BRIDGE_ERROR_KINDS.permissionDenied, ideBridgeMessages.permissionDenied()),
      new IdeBridgeError(
        IDE_BRIDGE_ERROR_KINDS.confirmationTimeout,
        ideBridgeMessages.confirmationTimeout(IDE),
      ),
    ];
    for (const error of reasons) {
      expect(describeInstallFailure(error, IDE)).toEqual({
        title: 'Oops',
        message: `${spec.message} ${error.message}`,
        ideMayBeGone: false,
      });
    }
  });

  it("is the spec's toast alone, and forgets the IDE, when the IDE may have quit", () => {
    const timeout = new IdeBridgeError(IDE_BRIDGE_ERROR_KINDS.network, ideBridgeMessages.timeout(IDE, 5000));
    for (const error of [timeout, new TypeError('Failed to fetch')]) {
      expect(describeInstallFailure(error, IDE)).toEqual({
        title: 'Oops',
        message:
          'Installation to IntelliJ IDEA 2025.2 is failed during the error. Please make sure, your IDE is still running.',
        ideMayBeGone: true,
      });
    }
  });
});
