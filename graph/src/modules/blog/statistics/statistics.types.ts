import { ArgsType, Field, Float, Int, ObjectType } from 'type-graphql';

@ArgsType()
export class BlogStatisticsArgs {
  @Field(() => Int, { nullable: true, description: '年（month と一緒に。期間と同時には指定できない）' }) year?: number;
  @Field(() => Int, { nullable: true, description: '月（1〜12）' }) month?: number;
  @Field(() => String, { nullable: true, description: '長期間の開始日 YYYY-MM-DD（endDate と一緒に）' })
  startDate?: string;
  @Field(() => String, { nullable: true, description: '長期間の終了日 YYYY-MM-DD（開始日から5年以内）' })
  endDate?: string;
  @Field(() => Int, { nullable: true, description: '投稿別の集計の件数（順位の上から。既定100、1〜1000）' })
  postsFirst?: number;
  @Field(() => Int, { nullable: true, description: '社員別の集計の上位N件（1以上。省略時はすべて）' })
  employeesFirst?: number;
  @Field(() => String, { nullable: true, description: '社員別: 氏名に含む文字（100文字以内）' }) employeeName?: string;
  @Field(() => String, { nullable: true, description: '社員別: 部署名に含む文字（100文字以内）' })
  employeeDepartment?: string;
  @Field(() => Int, { nullable: true, description: '社員別: このカテゴリに期間内に投稿した社員' })
  employeeCategoryId?: number;
}

@ObjectType({ simpleResolvers: true, description: '期間の合計' })
export class BlogStatisticsTotals {
  @Field(() => Int, { description: '公開開始日が期間内の投稿数' }) posts!: number;
  @Field(() => Int, { description: '期間内に付けられ、今も付いているいいね' }) likes!: number;
  @Field(() => Int, { description: '期間内の閲覧（社員が投稿を初めて開いた回数。再読み込みでは増えない）' })
  views!: number;
  @Field(() => Int, { description: '期間内に書かれ、削除されていないコメント（返信を含む）' }) comments!: number;
}

@ObjectType({ simpleResolvers: true, description: '投稿ごとの期間の集計' })
export class BlogPostStatistics {
  @Field(() => Int) postId!: number;
  @Field() title!: string;
  @Field(() => Int) authorId!: number;
  @Field() authorName!: string;
  @Field(() => Int, { nullable: true }) categoryId!: number | null;
  @Field(() => String, { nullable: true }) categoryName!: string | null;
  @Field({ description: '公開開始日 YYYY-MM-DD' }) publishStart!: string;
  @Field(() => Int) likeCount!: number;
  @Field(() => Int) viewCount!: number;
  @Field(() => Int) commentCount!: number;
  @Field(() => Int, { description: 'カテゴリを見られる在籍中の社員数' }) audience!: number;
  @Field(() => Float, {
    nullable: true,
    description: 'リーチ: 期間内の閲覧者数 ÷ audience（0〜1。audience が0なら null）',
  })
  reach!: number | null;
}

@ObjectType({ simpleResolvers: true, description: 'カテゴリ別の集計' })
export class BlogCategoryStatistics {
  @Field(() => Int) categoryId!: number;
  @Field() categoryName!: string;
  @Field() color!: string;
  @Field(() => Int, { description: '公開開始日が期間内の投稿数（total_blogs）' }) totalPosts!: number;
  @Field(() => Int) likes!: number;
  @Field(() => Int) views!: number;
  @Field(() => Int) comments!: number;
  @Field(() => [BlogPostStatistics], { description: '上位1〜5位（いいね、同数なら閲覧、コメント、新しい順）' })
  top!: BlogPostStatistics[];
}

@ObjectType({ simpleResolvers: true, description: 'カテゴリごとの件数' })
export class BlogCategoryCount {
  @Field(() => Int) categoryId!: number;
  @Field() categoryName!: string;
  @Field(() => Int) count!: number;
}

@ObjectType({ simpleResolvers: true, description: '社員ごとの期間の行動（見られる投稿に対するものだけ）' })
export class BlogEmployeeStatistics {
  @Field(() => Int) employeeId!: number;
  @Field() employeeName!: string;
  @Field(() => String, { nullable: true }) departmentName!: string | null;
  @Field(() => Int, { description: '付けたいいね' }) likeCount!: number;
  @Field(() => Int, { description: '書いたコメント' }) commentCount!: number;
  @Field(() => Int, { description: '初めて開いた投稿' }) viewCount!: number;
  @Field(() => Int, { description: '公開した投稿' }) postCount!: number;
  @Field(() => [BlogCategoryCount], { description: 'カテゴリごとの公開した投稿数（見られるカテゴリすべて、0を含む）' })
  byCategory!: BlogCategoryCount[];
}

@ObjectType({ simpleResolvers: true, description: '集計に含まれるカテゴリ' })
export class BlogStatisticsCategory {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field() color!: string;
}

@ObjectType({ simpleResolvers: true, description: 'グラフの1区間（日または月）' })
export class BlogStatisticsPoint {
  @Field({ description: '区間の初日 YYYY-MM-DD' }) date!: string;
  @Field(() => Int) posts!: number;
  @Field(() => Int) likes!: number;
  @Field(() => Int) views!: number;
  @Field(() => Int) comments!: number;
}

@ObjectType({ simpleResolvers: true, description: '月別ブログ統計（見られる投稿だけ。日と月は東京時間で区切る）' })
export class BlogStatistics {
  @Field({ description: 'MONTH（月）または RANGE（長期間）' }) mode!: string;
  @Field() startDate!: string;
  @Field() endDate!: string;
  @Field({ description: '比較する直前の期間の開始日' }) previousStartDate!: string;
  @Field() previousEndDate!: string;
  @Field({ description: 'series の区間: DAY または MONTH（62日を超える期間）' }) step!: string;
  @Field(() => BlogStatisticsTotals) totals!: BlogStatisticsTotals;
  @Field(() => BlogStatisticsTotals, { description: '直前の期間の合計（前期比）' })
  previousTotals!: BlogStatisticsTotals;
  @Field(() => [BlogCategoryStatistics]) byCategory!: BlogCategoryStatistics[];
  @Field(() => [BlogPostStatistics], { description: 'いいねの多い投稿（上位10件）' }) mostLiked!: BlogPostStatistics[];
  @Field(() => [BlogPostStatistics], { description: '閲覧の多い投稿（上位10件）' }) mostViewed!: BlogPostStatistics[];
  @Field(() => [BlogPostStatistics], { description: 'コメントの多い投稿（上位10件）' })
  mostCommented!: BlogPostStatistics[];
  @Field(() => [BlogPostStatistics], {
    description: '期間に公開されたか、期間に反応のあった投稿の上位 postsFirst 件（いいね順）',
  })
  posts!: BlogPostStatistics[];
  @Field(() => Int, { description: '投稿別の集計の全件数（posts はその上位）' }) postCount!: number;
  @Field(() => [BlogEmployeeStatistics], {
    description: '期間に行動した社員のうち絞り込みに合う上位 employeesFirst 人（行動の多い順）',
  })
  employees!: BlogEmployeeStatistics[];
  @Field(() => Int, { description: '絞り込みに合う社員の数（employees はその上位）' }) employeeCount!: number;
  @Field(() => [BlogStatisticsCategory]) categories!: BlogStatisticsCategory[];
  @Field(() => [BlogStatisticsPoint]) series!: BlogStatisticsPoint[];
}
