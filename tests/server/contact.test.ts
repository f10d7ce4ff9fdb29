import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { brand } from '../../contract/brand.ts';
import { contactMessages } from '../../server/modules/contact/contact.table.ts';
import { readOutbox } from './helpers/outbox.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

const valid = {
  full_name: 'Dr Ana Lima',
  email: 'ana.lima@hospital.example',
  institution: 'Hôpital Saint-Louis',
  message: 'We would like a demo of the CT quality checks for our radiology team.',
};

describe('POST /api/v1/contact-messages', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => t.close());

  const send = (payload: unknown, ip = '203.0.113.7') =>
    t.app.inject({ method: 'POST', url: '/api/v1/contact-messages', payload: payload as object, remoteAddress: ip });

  it('stores the message and e-mails the contact address with a reply-to of the sender', async () => {
    const response = await send(valid);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ status: 'received' });

    const rows = await t.app.db.select().from(contactMessages).where(eq(contactMessages.email, valid.email));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ fullName: 'Dr Ana Lima', institution: 'Hôpital Saint-Louis' });
    expect(rows[0]!.message).toBe(valid.message);

    const mail = await readOutbox(t.dataDir);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.to).toBe(brand.email);
    expect(mail[0]!.subject).toBe('Contact form: Dr Ana Lima');
    expect(mail[0]!.text).toContain('CT quality checks');
  });

  it('accepts a message without institution and stores it as null', async () => {
    const response = await send({ ...valid, institution: '' });
    expect(response.statusCode).toBe(201);
    const [row] = await t.app.db.select().from(contactMessages);
    expect(row!.institution).toBeNull();
  });

  it.each([
    [{ ...valid, full_name: '  ' }, 'full_name: Full name is required'],
    [{ ...valid, email: 'not-an-address' }, 'email: Email is not a valid address'],
    [{ ...valid, message: '' }, 'message: Message is required'],
    [{ ...valid, message: 'x'.repeat(5001) }, 'message: Message is too long (5000 characters at most)'],
    [{ ...valid, full_name: 'Eve\r\nBcc: all@example.org' }, 'full_name: Full name must be one line'],
  ])('refuses a bad message with 400 and says which field is wrong (%#)', async (payload, detail) => {
    const response = await send(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail });
    expect(await t.app.db.select().from(contactMessages)).toHaveLength(0);
  });

  it('answers as usual to a bot that filled the honeypot but keeps and sends nothing', async () => {
    const response = await send({ ...valid, website: 'http://spam.example' });
    expect(response.statusCode).toBe(201);
    expect(await t.app.db.select().from(contactMessages)).toHaveLength(0);
    expect(await readOutbox(t.dataDir)).toHaveLength(0);
  });

  it('limits one IP address to 5 messages per 15 minutes with a clear 429, other addresses unaffected', async () => {
    for (let i = 0; i < 5; i++) expect((await send(valid)).statusCode).toBe(201);
    const refused = await send(valid);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/^Too many requests\. Try again in \d+ seconds\.$/);
    expect((await send(valid, '198.51.100.4')).statusCode).toBe(201);
    expect(await t.app.db.select().from(contactMessages)).toHaveLength(6);
  });
});

describe('POST /api/v1/contact-messages when mail is down', () => {
  it('keeps the message and still thanks the sender', async () => {
    const t = await createTestApp(
      {},
      {
        mailer: {
          send: async () => {
            throw new Error('SMTP relay refused the connection');
          },
          close: () => undefined,
        },
      },
    );
    try {
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/contact-messages', payload: valid });
      expect(response.statusCode).toBe(201);
      expect(await t.app.db.select().from(contactMessages)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
