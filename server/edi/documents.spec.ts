/**
 * What the documents table says of a 990 or a 214 we sent: its code read from the X12 text, in the
 * partner's own separators; nothing for the other documents or a text that is not an interchange.
 */
import t from 'tap';
import { codeOf } from './documents.ts';

const isa = (element: string, segment: string) =>
  `ISA${element}00${element}          ${element}00${element}          ${element}ZZ${element}${'FREIGHTMKT'.padEnd(15)}${element}ZZ${element}${'BROKERTEST'.padEnd(15)}${element}261129${element}1200${element}U${element}00401${element}000000007${element}0${element}P${element}>${segment}`;

t.test('the 990 says A or D (B104), the 214 its status (AT701)', async (t) => {
  const e990 = `${isa('*', '~')}\nGS*GF*FREIGHTMKT*BROKERTEST*20261129*1200*7*X*004010~\nST*990*0001~\nB1*FREI*S-1*20261129*A~\nN9*CN*1001~\nSE*4*0001~`;
  t.equal(codeOf('990', e990), 'A');
  t.equal(codeOf('990', e990.replace('*A~', '*D~')), 'D');
  const e214 = `${isa('|', '^')}GS|QM|FREIGHTMKT|BROKERTEST|20261129|1200|8|X|004010^ST|214|0001^B10|1001|S-1|FREI^LX|1^AT7|AF|NS|||20261129|1300|UT^SE|5|0001^`;
  t.equal(codeOf('214', e214), 'AF', "in the partner's own separators");
});

t.test('no code for other documents or a text that is not an interchange', async (t) => {
  t.equal(codeOf('997', `${isa('*', '~')}ST*997*0001~AK1*SM*1~`), null);
  t.equal(codeOf('214', 'AT7*X3*NS~'), null, 'no ISA');
  t.equal(codeOf('214', `${isa('*', '~')}ST*214*0001~SE*2*0001~`), null, 'no AT7');
});
