import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  FalsePositive,
  UpdateProducts,
  UpdateVerification,
  Verification,
  VerificationComparison,
  VerificationJob,
  VerificationQueue,
  VerificationSummary,
  VerifierVersion,
} from '@marketplace/api-contract';
import { enqueueVerification, runVerificationWorker } from '../../src/verification';
import { DATABASE_KINDS } from '../db/test-database';
import { pluginJarContent, xmlFor } from './verification-fixtures';
import { createVerificationTestApp, type VerificationTestApp } from './verification-test-app';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

describe.each(DATABASE_KINDS)('/api/verifications on %s', (kind) => {
  let t: VerificationTestApp;
  let older: number;
  let newer: number;
  let olderVerification: number;
  let newerVerification: number;

  const as = async <T>(userId: number | undefined, request: InjectOptions, status = 200): Promise<T> => {
    const response = await t.call(userId, request);
    expect(response.statusCode, response.body).toBe(status);
    return (response.body === '' ? undefined : response.json()) as T;
  };

  beforeAll(async () => {
    t = await createVerificationTestApp(kind);
    older = await t.addVersion({ version: '1.0', content: pluginJarContent(xmlFor('1.0'), [61]) });
    newer = await t.addVersion({
      version: '1.1',
      content: pluginJarContent(xmlFor('1.1', { depends: '<depends>com.intellij.java</depends>' }), [61, 65]),
    });
    await enqueueVerification(t.db, older);
    await enqueueVerification(t.db, newer);
    await runVerificationWorker(t.env);
    const { owner } = t.users;
    olderVerification = (
      await as<UpdateVerification>(owner, { method: 'GET', url: `/api/verifications/update/${older}` })
    ).verification!.id;
    newerVerification = (
      await as<UpdateVerification>(owner, { method: 'GET', url: `/api/verifications/update/${newer}` })
    ).verification!.id;
  });
  afterAll(async () => t?.close());

  it('intellij-verifier-version: public, the checks and the external verifier (not configured here)', async () => {
    const body = await as<VerifierVersion>(undefined, {
      method: 'GET',
      url: '/api/verifications/intellij-verifier-version',
    });
    expect(body).toEqual({
      verifierVersion: 'marketplace-checks/1',
      types: ['descriptor', 'dependencies', 'bytecode', 'dynamic-loading', 'archive-hygiene'],
      external: { configured: false, version: null, timeoutSeconds: 0 },
    });
  });

  it('the queue: administrators see jobs by state, others are refused', async () => {
    const queue = await as<VerificationQueue>(t.users.admin, {
      method: 'GET',
      url: '/api/verifications?state=done',
    });
    expect(queue.total).toBeGreaterThanOrEqual(2);
    const job = queue.jobs.find((candidate) => candidate.updateId === newer);
    expect(job).toMatchObject({ state: 'done', attempts: 1, version: '1.1', pluginId: t.pluginId });
    expect(job?.verification).toMatchObject({ id: newerVerification, status: 'problems' });
    await as(t.users.owner, { method: 'GET', url: '/api/verifications' }, 403);
    await as(undefined, { method: 'GET', url: '/api/verifications' }, 401);
    await as(t.users.admin, { method: 'GET', url: '/api/verifications?state=lost' }, 400);
  });

  it('application/{id}: the current verification of each version, newest first, for the item’s people', async () => {
    const list = await as<VerificationSummary[]>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/application/${t.pluginId}`,
    });
    expect(list.map((summary) => `${summary.version} ${summary.status}`)).toEqual([
      '1.1 problems',
      '1.0 compatible',
    ]);
    await as(t.users.other, { method: 'GET', url: `/api/verifications/application/${t.pluginId}` }, 403);
    await as(t.users.admin, { method: 'GET', url: `/api/verifications/application/${t.pluginId}` });
    await as(t.users.owner, { method: 'GET', url: '/api/verifications/application/999999' }, 404);
  });

  it('update/{id}: the job and verification, narrowed by verificationType', async () => {
    const all = await as<UpdateVerification>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/update/${newer}`,
    });
    expect(all.job?.state).toBe('done');
    expect(all.verification?.findings.map((finding) => `${finding.type} ${finding.kind}`)).toEqual([
      'descriptor no-module-dependency',
      'bytecode class-file-too-new',
    ]);
    const bytecode = await as<UpdateVerification>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/update/${newer}?verificationType=bytecode`,
    });
    expect(bytecode.verification?.findings.map((finding) => finding.kind)).toEqual(['class-file-too-new']);
    await as(
      t.users.owner,
      { method: 'GET', url: `/api/verifications/update/${newer}?verificationType=magic` },
      400,
    );
    await as(t.users.other, { method: 'GET', url: `/api/verifications/update/${newer}` }, 403);
  });

  it('update/{id}/products: the claimed builds with their status', async () => {
    const products = await as<UpdateProducts>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/update/${newer}/products`,
    });
    expect(products).toMatchObject({ updateId: newer, since: '241', until: '243.*' });
    expect(
      products.products.map((product) => `${product.productBuild} ${product.release} ${product.status}`),
    ).toEqual([
      'IU-241.19416.15 2024.1 problems',
      'IU-242.26775.15 2024.2 warnings',
      'IU-243.28141.18 2024.3 warnings',
    ]);
  });

  it('{id}: status per build and findings; {id}?verificationType= narrows them', async () => {
    const verification = await as<Verification>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/${newerVerification}`,
    });
    expect(verification).toMatchObject({
      updateId: newer,
      version: '1.1',
      status: 'problems',
      problems: 1,
      warnings: 1,
    });
    expect(verification.results.map((result) => `${result.branch} ${result.status}`)).toEqual([
      '241 problems',
      '242 warnings',
      '243 warnings',
    ]);
    const descriptor = await as<Verification>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/${newerVerification}?verificationType=descriptor`,
    });
    expect(descriptor.findings.map((finding) => finding.kind)).toEqual(['no-module-dependency']);
    await as(t.users.other, { method: 'GET', url: `/api/verifications/${newerVerification}` }, 403);
    await as(t.users.owner, { method: 'GET', url: '/api/verifications/999999' }, 404);
  });

  it('{id}/previous: what is new, resolved and unchanged since the version before', async () => {
    const comparison = await as<VerificationComparison>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/${newerVerification}/previous`,
    });
    expect(comparison.previous?.id).toBe(olderVerification);
    expect(comparison.newFindings.map((finding) => finding.kind)).toEqual([
      'no-module-dependency',
      'class-file-too-new',
    ]);
    expect(comparison.resolvedFindings).toEqual([]);
    const first = await as<VerificationComparison>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/${olderVerification}/previous`,
    });
    expect(first.previous).toBeNull();
  });

  it('false-positive: the item’s people mark a finding for their plugin; it then counts for nothing', async () => {
    const verification = await as<Verification>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/${newerVerification}`,
    });
    const bytecode = verification.findings.find((finding) => finding.type === 'bytecode')!;
    await as(
      t.users.other,
      { method: 'POST', url: '/api/verifications/false-positive', payload: { problemId: bytecode.id } },
      403,
    );
    const marked = await as<FalsePositive>(
      t.users.owner,
      {
        method: 'POST',
        url: '/api/verifications/false-positive',
        payload: { problemId: bytecode.id, reason: 'Loaded only on 243+' },
      },
      201,
    );
    expect(marked).toMatchObject({
      scope: 'plugin',
      pluginId: t.pluginId,
      kind: 'class-file-too-new',
      reason: 'Loaded only on 243+',
    });
    await as(
      t.users.owner,
      { method: 'POST', url: '/api/verifications/false-positive', payload: { problemId: bytecode.id } },
      409,
    );
    await as(
      t.users.owner,
      { method: 'POST', url: '/api/verifications/false-positive', payload: { problemId: 999999 } },
      404,
    );
    const after = await as<Verification>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/${newerVerification}`,
    });
    expect(after.status).toBe('warnings');
    expect(after.findings.find((finding) => finding.id === bytecode.id)?.falsePositive).toEqual({
      id: marked.id,
      scope: 'plugin',
    });
    const listed = await as<FalsePositive[]>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/false-positive/plugin/${t.pluginId}`,
    });
    expect(listed.map((item) => item.id)).toEqual([marked.id]);
    await as(
      t.users.other,
      { method: 'DELETE', url: `/api/verifications/false-positive?id=${marked.id}` },
      403,
    );
    await as(
      t.users.owner,
      { method: 'DELETE', url: `/api/verifications/false-positive?id=${marked.id}` },
      204,
    );
    const restored = await as<Verification>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/${newerVerification}`,
    });
    expect(restored.status).toBe('problems');
  });

  it('false-positive/global: administrators mark a finding for every plugin', async () => {
    const verification = await as<Verification>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/${newerVerification}`,
    });
    const warning = verification.findings.find((finding) => finding.kind === 'no-module-dependency')!;
    const payload = { problemId: warning.id };
    await as(
      t.users.owner,
      { method: 'POST', url: '/api/verifications/false-positive/global', payload },
      403,
    );
    const marked = await as<FalsePositive>(
      t.users.admin,
      { method: 'POST', url: '/api/verifications/false-positive/global', payload },
      201,
    );
    expect(marked).toMatchObject({ scope: 'global', pluginId: null });
    const globalList = await as<FalsePositive[]>(t.users.admin, {
      method: 'GET',
      url: '/api/verifications/false-positive/global',
    });
    expect(globalList.map((item) => item.id)).toContain(marked.id);
    await as(t.users.owner, { method: 'GET', url: '/api/verifications/false-positive/global' }, 403);
    const after = await as<Verification>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/${newerVerification}`,
    });
    expect(after.warnings).toBe(0);
    expect(after.findings.find((finding) => finding.id === warning.id)?.falsePositive?.scope).toBe('global');
    await as(
      t.users.owner,
      { method: 'DELETE', url: `/api/verifications/false-positive?id=${marked.id}` },
      403,
    );
    await as(
      t.users.admin,
      { method: 'DELETE', url: `/api/verifications/false-positive?id=${marked.id}` },
      204,
    );
  });

  it('discard/{id} sets a verification aside; update/{id} POST verifies the version again', async () => {
    const discarded = await as<Verification>(t.users.owner, {
      method: 'POST',
      url: `/api/verifications/discard/${newerVerification}`,
    });
    expect(discarded.discarded).toBe(true);
    await as(t.users.owner, { method: 'POST', url: `/api/verifications/discard/${newerVerification}` }, 409);
    const none = await as<UpdateVerification>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/update/${newer}`,
    });
    expect(none.verification).toBeNull();
    await as(t.users.other, { method: 'POST', url: `/api/verifications/update/${newer}` }, 403);
    const job = await as<VerificationJob>(
      t.users.owner,
      { method: 'POST', url: `/api/verifications/update/${newer}` },
      202,
    );
    expect(job).toMatchObject({ updateId: newer, state: 'queued', attempts: 0, verification: null });
    const again = await as<VerificationJob>(
      t.users.owner,
      { method: 'POST', url: `/api/verifications/update/${newer}` },
      202,
    );
    expect(again.id).toBe(job.id);
    await runVerificationWorker(t.env);
    const fresh = await as<UpdateVerification>(t.users.owner, {
      method: 'GET',
      url: `/api/verifications/update/${newer}`,
    });
    expect(fresh.job).toMatchObject({ id: job.id, state: 'done' });
    expect(fresh.verification?.id).not.toBe(newerVerification);
    expect(fresh.verification?.status).toBe('problems');
  });
});
