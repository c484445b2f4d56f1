import { graphql } from '../../../gql';

export const BlogStatisticsQuery = graphql(`
  query BlogStatistics($year: Int, $month: Int, $startDate: String, $endDate: String) {
    blogStatistics(year: $year, month: $month, startDate: $startDate, endDate: $endDate) {
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
        top {
          postId
          title
          likeCount
        }
      }
      posts {
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
      mostLiked {
        postId
      }
      mostViewed {
        postId
      }
      mostCommented {
        postId
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
