// Without SMTP_URL (outside production, loopback HOST) the email channel keeps its mail in the
// development outbox, signed and built exactly as for SMTP: the send is `sent` and readable there.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { createBusiness, signUp } from '../../../testing/identity';
import { sendEmail } from '../email.service';
import { setSendingIdentityLookupForTests } from '../sending-identity';
import { dkimKey, verifiedDomains, waitForSend } from './email-helpers';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await createTestRuntime({ workers: true, env: { PUBLIC_URL: 'https://titan.example.com' } });
});
afterAll(async () => {
  setSendingIdentityLookupForTests(null);
  await rt?.destroy();
});

it('keeps the mail in the development outbox when no mail server is configured', async () => {
  expect(rt.services.email.transport?.kind).toBe('outbox');
  const owner = await signUp(rt.app!, rt.mailer);
  const business = await createBusiness(rt.app!, owner, 'Outbox Co');
  verifiedDomains([{ businessId: business.id, domain: 'outbox.test', pem: dkimKey().pem }]);
  const to = `reader.${process.pid}@example.test`;
  const send = await sendEmail(rt.services.email, {
    businessId: business.id,
    from: 'hello@outbox.test',
    to: { address: to },
    subject: 'In the outbox',
    html: '<p>Read <a href="https://outbox.test/a">this</a></p>',
    cause: 'test',
  });
  const done = await waitForSend(rt.services.db, send.id, (s) => s.status === 'sent');
  expect(done.providerMessageId).toBe(`<${send.id}@outbox.test>`);
  const [mail] = await rt.mailer.listOutbox(to);
  expect(mail).toMatchObject({ subject: 'In the outbox' });
  expect(mail!.text).toContain('Read this');
  expect(mail!.links).toContain('https://outbox.test/a');
});
