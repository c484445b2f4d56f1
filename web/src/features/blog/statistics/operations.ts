import { graphql } from '../../../gql';

export const StatisticsPostFieldsFragment = graphql(`
  fragment StatisticsPostFields on BlogPostStatistics {
    postId
    title
    authorName
    categoryName
    publishStart
    likeCount
    viewCount
    commentCount
    reach
  }
`);

export const BlogStatisticsQuery = graphql(`
  query BlogStatistics(
    $year: Int
    $month: Int
    $startDate: String
    $endDate: String
    $employeesFirst: Int
    $employeeName: String
    $employeeDepartment: String
    $employeeCategoryId: Int
  ) {
    blogStatistics(
      year: $year
      month: $month
      startDate: $startDate
      endDate: $endDate
      employeesFirst: $employeesFirst
      employeeName: $employeeName
      employeeDepartment: $employeeDepartment
      employeeCategoryId: $employeeCategoryId
    ) {
      mode
      startDate
      endDate
      previousStartDate
      previousEndDate
      step
      totals {
        posts
        likes
        views
        comments
      }
      previousTotals {
        posts
        likes
        views
        comments
      }
      byCategory {
        categoryId
        categoryName
        color
        totalPosts
        likes
        views
        comments
        top {
          postId
          title
          likeCount
        }
      }
      posts {
        ...StatisticsPostFields
      }
      postCount
      employeeCount
      mostLiked {
        ...StatisticsPostFields
      }
      mostViewed {
        ...StatisticsPostFields
      }
      mostCommented {
        ...StatisticsPostFields
      }
      employees {
        employeeId
        employeeName
        departmentName
        likeCount
        commentCount
        viewCount
        postCount
        byCategory {
          categoryId
          count
        }
      }
      categories {
        id
        name
        color
      }
      series {
        date
        posts
        likes
        views
        comments
      }
    }
  }
`);
