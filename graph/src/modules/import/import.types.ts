import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum ImportJobMode {
  PREVIEW = 'PREVIEW',
  APPLY = 'APPLY',
}
export enum ImportJobStatus {
  QUEUED = 'QUEUED',
  RUNNING = 'RUNNING',
  SUCCEEDED = 'SUCCEEDED',
  FAILED = 'FAILED',
}
export enum ImportRowAction {
  CREATE = 'CREATE',
  UPDATE = 'UPDATE',
  UNCHANGED = 'UNCHANGED',
  REJECT = 'REJECT',
}
registerEnumType(ImportJobMode, { name: 'ImportJobMode', description: 'プレビュー（書き込みなし）/ 取り込み' });
registerEnumType(ImportJobStatus, { name: 'ImportJobStatus', description: '待機中 / 処理中 / 完了 / 失敗' });
registerEnumType(ImportRowAction, { name: 'ImportRowAction', description: '登録 / 更新 / 変更なし / エラー' });

@ObjectType({ simpleResolvers: true, description: '取り込めなかった行の理由' })
export class ImportRowError {
  @Field(() => Int, { description: 'ファイル上の行番号' }) row!: number;
  @Field(() => String, { nullable: true, description: '列見出し' }) column!: string | null;
  @Field() reason!: string;
}

@ObjectType({ simpleResolvers: true, description: 'プレビュー: 1行で行われること' })
export class ImportPreviewRow {
  @Field(() => Int) row!: number;
  @Field(() => ImportRowAction) action!: ImportRowAction;
  @Field(() => String, { nullable: true }) assetNumber!: string | null;
  @Field(() => Int, { nullable: true }) computerId!: number | null;
  @Field(() => String, { nullable: true }) maker!: string | null;
  @Field(() => String, { nullable: true }) model!: string | null;
  @Field(() => String, { nullable: true }) currentUserName!: string | null;
  @Field(() => [String], { description: '更新で変わる列（見出し名）' }) changed!: string[];
  @Field(() => [String], { description: '更新で空になる列（見出し名、changed のうち空欄のセルで消去されるもの）' })
  cleared!: string[];
}

@ObjectType({ simpleResolvers: true, description: 'パソコンの Excel 取り込みジョブ' })
export class ImportJob {
  @Field(() => ID) id!: string;
  @Field(() => ImportJobMode) mode!: ImportJobMode;
  @Field(() => ImportJobStatus) status!: ImportJobStatus;
  @Field() fileName!: string;
  @Field(() => Int, {
    nullable: true,
    description: 'データ行数。実行中はシートの申告値または推定値（進捗表示用）、完了後は実際の行数',
  })
  totalRows!: number | null;
  @Field(() => Int) processedRows!: number;
  @Field(() => Int) created!: number;
  @Field(() => Int) updated!: number;
  @Field(() => Int) unchanged!: number;
  @Field(() => Int) rejected!: number;
  @Field(() => String, { nullable: true, description: 'ジョブ全体の失敗理由' }) error!: string | null;
  @Field(() => [ImportPreviewRow], { description: '先頭100行の予定（プレビュー）または結果' })
  preview!: ImportPreviewRow[];
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) finishedAt!: Date | null;
  @Field(() => String, { nullable: true, description: '行エラーの一覧（.xlsx）。完了していてエラー行があるときだけ。' })
  errorReportUrl!: string | null;
}
