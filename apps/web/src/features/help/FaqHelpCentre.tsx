import { useEffect, useState } from 'react';
import { Button, Card, Input, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router-dom';
import { FaqItemList } from './FaqItemList';
import { FaqKeywordNav } from './FaqKeywordNav';
import { useFaqKeywords, useFaqSearch, useKeywordItems } from './useFaq';
import './help.css';

/**
 * The FAQ help centre (spec 001 §2.8, §4 FAQ): keyword mode versus search mode. A search submit enters search mode
 * (results replace the keyword content); a keyword click leaves it. The state lives in the URL (?q= or ?keyword=),
 * so a search or a topic can be linked and the back button works.
 */
export function FaqHelpCentre() {
  const [params, setParams] = useSearchParams();
  const search = params.get('q')?.trim() || null;
  const keywords = useFaqKeywords();
  const keyword = params.get('keyword') ?? keywords.data?.[0]?.name ?? null;
  const [text, setText] = useState(search ?? '');
  useEffect(() => setText(search ?? ''), [search]);

  const keywordItems = useKeywordItems(search ? null : keyword);
  const results = useFaqSearch(search);

  const selectKeyword = (name: string) => setParams({ keyword: name });
  const submit = (value: string) => {
    const q = value.trim();
    setParams(q ? { q } : keyword ? { keyword } : {});
  };

  return (
    <div className="crp-faq">
      <form
        className="crp-faq-search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          submit(text);
        }}
      >
        <Input
          size="large"
          allowClear
          prefix={<SearchOutlined aria-hidden="true" />}
          placeholder="Search for answers"
          aria-label="Search for answers"
          value={text}
          maxLength={200}
          onChange={(e) => setText(e.target.value)}
        />
        <Button type="primary" size="large" htmlType="submit">
          Search
        </Button>
      </form>

      <div className="crp-faq-layout">
        <aside className="crp-faq-sidebar">
          <Card className="crp-card" size="small">
            <FaqKeywordNav keywords={keywords.data ?? []} loading={keywords.isLoading} active={search ? null : keyword} onSelect={selectKeyword} />
          </Card>
        </aside>
        <section className="crp-faq-content" aria-live="polite">
          {search ? (
            <>
              <div className="crp-faq-content-head">
                <Typography.Title level={4} data-testid="faq-results-title">
                  {results.isLoading ? 'Searching…' : `${results.data?.length ?? 0} answer${results.data?.length === 1 ? '' : 's'} for “${search}”`}
                </Typography.Title>
                <Button type="link" onClick={() => setParams(keyword && params.get('keyword') ? { keyword } : {})}>
                  Back to topics
                </Button>
              </div>
              <FaqItemList
                items={results.data}
                loading={results.isLoading}
                emptyText="No answers match these words. Try fewer or shorter words, or browse the topics on the left."
                onKeyword={selectKeyword}
              />
            </>
          ) : (
            <>
              <div className="crp-faq-content-head">
                <Typography.Title level={4} data-testid="faq-keyword-title">
                  {keyword ?? 'Topics'}
                </Typography.Title>
              </div>
              <FaqItemList items={keywordItems.data} loading={keywords.isLoading || keywordItems.isLoading} emptyText="No questions under this topic yet." />
            </>
          )}
        </section>
      </div>
    </div>
  );
}
