import { describe, expect, it } from 'vitest';
import * as texts from './texts';

describe('texts of the spec', () => {
  it('explain an unknown upload error', () => {
    expect(texts.UNKNOWN_UPLOAD_ERROR).toBe(
      'Sorry, an unknown error has occurred. Please, try to reload the page.',
    );
  });

  it("report other upload statuses as 'Status code {code}: {text}'", () => {
    expect(texts.uploadStatusError(413, 'Payload Too Large')).toBe('Status code 413: Payload Too Large');
  });

  it('name the IDE in the install toasts', () => {
    expect(texts.installSuccessToast('IntelliJ IDEA 2025.2')).toEqual({
      title: 'Success',
      message: 'Check your IDE - IntelliJ IDEA 2025.2',
    });
    expect(texts.installFailureToast('GoLand')).toEqual({
      title: 'Oops',
      message:
        'Installation to GoLand is failed during the error. Please make sure, your IDE is still running.',
    });
  });

  it('word the buttons, hints and placeholders as the spec does', () => {
    expect(texts.GET_FROM_MARKETPLACE).toBe('Get from Marketplace');
    expect(texts.OPEN_COURSE).toBe('Open course');
    expect(texts.LAUNCH_IDE_HINT).toBe('Please launch your IDE and refresh the page');
    expect(texts.STATISTICS_LOADING).toBe('Getting statistics...');
    expect(texts.STATISTICS_UNAVAILABLE).toBe('Statistics temporarily unavailable');
    expect(texts.NO_DESCRIPTION).toBe('Description is not provided');
    expect(texts.AI_BUTTON_DEFAULT_TEXT).toBe('Try for free');
  });

  it('word the error labels as the spec does', () => {
    expect(texts.INTERNAL_ERROR_TITLE).toBe('Internal Error');
    expect(texts.ERROR_TITLE).toBe('Error');
    expect(texts.INTERNAL_API_ERROR).toBe(
      'Internal API error has happened. Please update the page or return later',
    );
    expect(texts.SOMETHING_WENT_WRONG).toBe('Something went wrong');
    expect(texts.FAILED).toBe('Failed');
    expect(texts.TRY_AGAIN).toBe('Try again');
  });
});

describe('error notifications', () => {
  it("say only 'Internal Error' from status 500 up, whatever the server said", () => {
    expect(texts.errorNotification(500, 'stack trace at line 3')).toEqual({
      title: 'Internal Error',
      keepOpen: true,
    });
    expect(texts.errorNotification(503)).toEqual({ title: 'Internal Error', keepOpen: true });
  });

  it("say 'Error' with the message below 500, and stay on screen", () => {
    expect(texts.errorNotification(400, 'Plugin id is taken')).toEqual({
      title: 'Error',
      message: 'Plugin id is taken',
      keepOpen: true,
    });
    expect(texts.errorNotification(499, 'x').title).toBe('Error');
  });

  it('fall back to the generic API error when the message is missing or blank', () => {
    for (const message of [undefined, null, '', '   ']) {
      expect(texts.errorNotification(404, message).message).toBe(texts.INTERNAL_API_ERROR);
    }
  });
});

describe('toast closing', () => {
  it('closes ordinary toasts after 5 seconds', () => {
    expect(texts.toastAutoCloseMs({ isError: false })).toBe(5000);
  });

  it('keeps error toasts, toasts asked to stay and toasts with controls until closed', () => {
    expect(texts.toastAutoCloseMs({ isError: true })).toBeUndefined();
    expect(texts.toastAutoCloseMs({ isError: false, keepOpen: true })).toBeUndefined();
    expect(texts.toastAutoCloseMs({ isError: false, hasControls: true })).toBeUndefined();
  });
});
