import { describe, expect, it } from 'vitest';
import { describeFailedResponse } from './failed-response';

describe('failed HTTP answers', () => {
  it('take type, status and message from a JSON body, with the type lower-cased', () => {
    expect(
      describeFailedResponse({
        status: 409,
        statusText: 'Conflict',
        bodyText: JSON.stringify({ type: 'ERROR', message: 'Plugin id is taken' }),
        isJson: true,
      }),
    ).toEqual({ type: 'error', status: 'ERROR', message: 'Plugin id is taken' });
  });

  it('default the type to warning and the status to the HTTP status when the body names no type', () => {
    expect(
      describeFailedResponse({
        status: 400,
        statusText: 'Bad Request',
        bodyText: JSON.stringify({ message: 'Name is required' }),
        isJson: true,
      }),
    ).toEqual({ type: 'warning', status: 400, message: 'Name is required' });
  });

  it('cut a JSON message to 1000 characters', () => {
    const answer = describeFailedResponse({
      status: 400,
      statusText: 'Bad Request',
      bodyText: JSON.stringify({ message: 'e'.repeat(5000) }),
      isJson: true,
    });
    expect(answer.message).toHaveLength(1000);
  });

  it('fall back to the status text when the JSON body has no message', () => {
    expect(
      describeFailedResponse({
        status: 404,
        statusText: 'Not Found',
        bodyText: '{"type":"  "}',
        isJson: true,
      }),
    ).toEqual({ type: 'warning', status: 404, message: 'Not Found' });
  });

  it('use the text of a body that is not JSON, or the status text when it is empty', () => {
    expect(
      describeFailedResponse({
        status: 502,
        statusText: 'Bad Gateway',
        bodyText: 'upstream down',
        isJson: false,
      }),
    ).toEqual({ type: 'warning', status: 502, message: 'upstream down' });
    expect(
      describeFailedResponse({ status: 502, statusText: 'Bad Gateway', bodyText: '  ', isJson: false })
        .message,
    ).toBe('Bad Gateway');
    expect(
      describeFailedResponse({
        status: 413,
        statusText: 'Too Large',
        bodyText: 'x'.repeat(2000),
        isJson: false,
      }).message,
    ).toHaveLength(1000);
  });

  it('treat a body that claims JSON but is broken, or is not an object, as text', () => {
    expect(
      describeFailedResponse({ status: 500, statusText: 'Server Error', bodyText: '{broken', isJson: true }),
    ).toEqual({ type: 'warning', status: 500, message: '{broken' });
    expect(
      describeFailedResponse({ status: 500, statusText: 'Server Error', bodyText: '["a"]', isJson: true })
        .message,
    ).toBe('["a"]');
  });
});
