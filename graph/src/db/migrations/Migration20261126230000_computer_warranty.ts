import { Migration } from '@mikro-orm/migrations';

/** 保証期限: the date a computer's warranty ends (asset registers are asked which ones end soon). */
export class Migration20261126230000_computer_warranty extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "computer" add column "warranty_until" date null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "computer" drop column "warranty_until";`);
  }
}
