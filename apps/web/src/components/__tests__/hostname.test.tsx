import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { Hostname } from '../hostname';

describe('Hostname', () => {
  it('offers a line break after each dot, keeping the text whole', () => {
    const { container } = render(<Hostname value="titan._domainkey.mail.example.com" />);
    const span = container.firstElementChild!;
    expect(span).toHaveTextContent('titan._domainkey.mail.example.com');
    expect(span.querySelectorAll('wbr')).toHaveLength(4);
    expect(span.innerHTML).toContain('titan.<wbr>_domainkey.<wbr>mail');
    expect(span).not.toHaveClass('break-all');
  });
});
