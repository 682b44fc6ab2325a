/**
 * The default categories (What the service does: "119 in total, each with is_default =
 * true"; Limits: "default categories 119"). Top-level categories have `parent_guid`
 * null; subcategories name their parent. Guids are stable, so transactions of other
 * modules can carry `category_guid` / `top_level_category_guid` from this list.
 */
import { stableGuid } from './stable-id.ts';

export interface DefaultCategory {
  guid: string;
  name: string;
  parent_guid: string | null;
  is_default: true;
  is_income: boolean;
  created_at: string;
  updated_at: string;
}

/** 21 top-level categories and 98 subcategories: 119. */
const TREE: Array<[string, string[]]> = [
  ['Auto & Transport', ['Auto Insurance', 'Auto Payment', 'Gas', 'Parking', 'Public Transportation', 'Service & Parts', 'Ride Share']],
  ['Bills & Utilities', ['Home Phone', 'Internet', 'Mobile Phone', 'Television', 'Utilities', 'Streaming Services']],
  ['Business Services', ['Advertising', 'Legal', 'Office Supplies', 'Printing', 'Shipping']],
  ['Education', ['Books & Supplies', 'Student Loan', 'Tuition']],
  ['Entertainment', ['Amusement', 'Arts', 'Movies & DVDs', 'Music', 'Newspapers & Magazines']],
  ['Fees & Charges', ['ATM Fee', 'Bank Fee', 'Finance Charge', 'Late Fee', 'Service Fee', 'Trade Commissions']],
  ['Financial', ['Financial Advisor', 'Life Insurance']],
  ['Food & Dining', ['Alcohol & Bars', 'Coffee Shops', 'Fast Food', 'Groceries', 'Restaurants']],
  ['Gifts & Donations', ['Charity', 'Gift']],
  ['Health & Fitness', ['Dentist', 'Doctor', 'Eyecare', 'Gym', 'Health Insurance', 'Pharmacy', 'Sports']],
  ['Home', ['Furnishings', 'Home Improvement', 'Home Insurance', 'Home Services', 'Home Supplies', 'Lawn & Garden', 'Mortgage & Rent']],
  ['Income', ['Bonus', 'Interest Income', 'Paycheck', 'Reimbursement', 'Rental Income']],
  ['Investments', ['Buy', 'Deposit', 'Dividends & Cap Gains', 'Sell', 'Withdrawal']],
  ['Kids', ['Allowance', 'Baby Supplies', 'Babysitter & Daycare', 'Child Support', 'Kids Activities', 'Toys']],
  ['Personal Care', ['Hair', 'Laundry', 'Spa & Massage']],
  ['Pets', ['Pet Food & Supplies', 'Pet Grooming', 'Veterinary']],
  ['Shopping', ['Books', 'Clothing', 'Electronics & Software', 'Hobbies', 'Sporting Goods']],
  ['Taxes', ['Federal Tax', 'Local Tax', 'Property Tax', 'Sales Tax', 'State Tax']],
  ['Transfer', ['Credit Card Payment', 'Transfer for Cash Spending', 'Mortgage Payment']],
  ['Travel', ['Air Travel', 'Hotel', 'Rental Car & Taxi', 'Vacation', 'Cruise', 'Travel Insurance']],
  ['Uncategorized', ['Cash', 'Check']],
];

let cached: DefaultCategory[] | undefined;

export function defaultCategories(): DefaultCategory[] {
  if (cached) return cached;
  const out: DefaultCategory[] = [];
  const stamp = '2014-01-01T00:00:00Z';
  for (const [top, subs] of TREE) {
    const parent: DefaultCategory = {
      guid: stableGuid('CAT', top),
      name: top,
      parent_guid: null,
      is_default: true,
      is_income: top === 'Income',
      created_at: stamp,
      updated_at: stamp,
    };
    out.push(parent);
    for (const sub of subs) {
      out.push({
        guid: stableGuid('CAT', `${top}/${sub}`),
        name: sub,
        parent_guid: parent.guid,
        is_default: true,
        is_income: top === 'Income',
        created_at: stamp,
        updated_at: stamp,
      });
    }
  }
  cached = out;
  return out;
}
